package io.anteroom.gateway.admin;

import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.web.reactive.function.server.ServerRequest;

/**
 * The named token an admin request was authenticated with ({@link AdminAuthentication} puts it on
 * the request): who is acting, for the audit trail, and with which role.
 */
record Operator(String name, Role role) {

  static final String ATTRIBUTE = Operator.class.getName();

  /** The request's operator; every request past {@link AdminAuthentication} has one. */
  static Operator of(ServerRequest request) {
    return request
        .attribute(ATTRIBUTE)
        .map(Operator.class::cast)
        .orElseThrow(() -> new IllegalStateException("admin request without an operator"));
  }

  /** {@code GET /admin/api/me}: {@code {"name", "role"}}. */
  Map<String, Object> view() {
    Map<String, Object> view = new LinkedHashMap<>();
    view.put("name", name);
    view.put("role", role.value());
    return view;
  }
}
