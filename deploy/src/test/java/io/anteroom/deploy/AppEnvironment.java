package io.anteroom.deploy;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The environment variables the apps read, each with the files whose {@code ${NAME:default}}
 * placeholder reads it. Deployments may set only these: anything else is silently ignored by the
 * apps, which is how a misspelt setting goes unnoticed.
 */
final class AppEnvironment {

  static final Path SHARED_CONFIG = Path.of("../config/anteroom.yml");

  /** Name to the files that read it. */
  static final Map<String, List<Path>> READ_BY_APPS =
      Map.of(
          // spring.config.import of both apps: where config/anteroom.yml is.
          "ANTEROOM_CONFIG", List.of(AppSettings.GATEWAY_YML, AppSettings.WORKER_YML),
          // anteroom.redis.uri, read by both apps.
          "ANTEROOM_REDIS_URI", List.of(SHARED_CONFIG),
          // anteroom.redis.cluster-nodes, read by both apps; set, it replaces the uri.
          "ANTEROOM_REDIS_CLUSTER_NODES", List.of(SHARED_CONFIG),
          // anteroom.tokens.keys.main, read by the gateway.
          "ANTEROOM_TOKEN_KEY", List.of(SHARED_CONFIG),
          // anteroom.admin.token, the gateway's admin API token.
          "ANTEROOM_ADMIN_TOKEN", List.of(SHARED_CONFIG),
          // anteroom.admin.token-dir, the gateway's directory of named admin tokens.
          "ANTEROOM_ADMIN_TOKEN_DIR", List.of(SHARED_CONFIG),
          // The uri of the gateway's routes.
          "ANTEROOM_ORIGIN", List.of(SHARED_CONFIG));

  /** Images of the apps, as the build's Jib configuration names them. */
  static final String GATEWAY_IMAGE = "anteroom/gateway:0.1.0-SNAPSHOT";

  static final String WORKER_IMAGE = "anteroom/admission-worker:0.1.0-SNAPSHOT";

  /** The user the images run as, and where they expect the shared config. */
  static final long IMAGE_USER = 65532;

  static final String IMAGE_CONFIG_PATH = "/app/config/anteroom.yml";

  private AppEnvironment() {}
}
