package io.anteroom.gateway.admin;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ActorTests {

  @Test
  void nameKeepsSafeCharactersAndReplacesTheRest() {
    assertThat(Actor.name("alice@example.com")).isEqualTo("alice@example.com");
    assertThat(Actor.name("bob\r\nwho=root")).isEqualTo("bob__who_root");
    assertThat(Actor.name("é")).isEqualTo("_");
  }

  @Test
  void nameIsBoundedAndDefaultsToAdmin() {
    assertThat(Actor.name("x".repeat(500))).hasSize(Actor.MAX_NAME);
    assertThat(Actor.name(null)).isEqualTo("admin");
    assertThat(Actor.name("   ")).isEqualTo("admin");
  }
}
