package io.anteroom.gateway.admin;

import org.springframework.web.reactive.function.server.HandlerFunction;
import org.springframework.web.reactive.function.server.ServerResponse;

/**
 * The role each admin call needs. Reading needs a viewer's, which every token has; changes need an
 * operator's; the failure policy needs an admin's. A token with too low a role gets a 403 naming
 * the role needed ({@link AdminResponses#forbidden}), before its body is read.
 */
final class RoleGate {

  private RoleGate() {}

  /** {@code handler}, for tokens of at least {@code role}. */
  static HandlerFunction<ServerResponse> needs(Role role, HandlerFunction<ServerResponse> handler) {
    return request -> {
      Operator operator = Operator.of(request);
      return operator.role().allows(role)
          ? handler.handle(request)
          : AdminResponses.forbidden(role, operator.role());
    };
  }
}
