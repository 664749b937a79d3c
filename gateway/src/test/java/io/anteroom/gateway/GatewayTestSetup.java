package io.anteroom.gateway;

/**
 * The settings every gateway test starts with: the shipped config/anteroom.yml and a fixed key. A
 * {@link GatewayIntegrationTest} applies them; {@link GatewayApp} passes them as arguments.
 */
public final class GatewayTestSetup {

  /** A fixed signing key (bytes 0 to 31), so tests can verify passes the origin received. */
  public static final String KEY = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=";

  /** Properties every gateway test uses. */
  public static final String CONFIG = "ANTEROOM_CONFIG=../config/anteroom.yml";

  public static final String KEYS = "anteroom.tokens.keys.main=" + KEY;

  private GatewayTestSetup() {}
}
