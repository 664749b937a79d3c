package io.anteroom.gateway.admin;

import org.springframework.http.HttpStatus;

/** A request the admin API refuses, with the status and the message its JSON error carries. */
final class AdminException extends RuntimeException {

  private final HttpStatus status;

  AdminException(HttpStatus status, String message) {
    super(message, null, false, false);
    this.status = status;
  }

  static AdminException badRequest(String message) {
    return new AdminException(HttpStatus.BAD_REQUEST, message);
  }

  static AdminException notFound(String message) {
    return new AdminException(HttpStatus.NOT_FOUND, message);
  }

  HttpStatus status() {
    return status;
  }
}
