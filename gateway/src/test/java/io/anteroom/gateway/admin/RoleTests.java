package io.anteroom.gateway.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class RoleTests {

  @Test
  void eachRoleIncludesTheOnesBelowIt() {
    assertThat(Role.ADMIN.allows(Role.OPERATOR)).isTrue();
    assertThat(Role.ADMIN.allows(Role.VIEWER)).isTrue();
    assertThat(Role.OPERATOR.allows(Role.OPERATOR)).isTrue();
    assertThat(Role.OPERATOR.allows(Role.ADMIN)).isFalse();
    assertThat(Role.VIEWER.allows(Role.OPERATOR)).isFalse();
  }

  @Test
  void parsesTheLowerCaseNamesInAnyCase() {
    assertThat(Role.parse("viewer")).isEqualTo(Role.VIEWER);
    assertThat(Role.parse(" Operator ")).isEqualTo(Role.OPERATOR);
    assertThat(Role.ADMIN.value()).isEqualTo("admin");
    assertThatThrownBy(() -> Role.parse("root")).hasMessageContaining("viewer, operator, admin");
  }
}
