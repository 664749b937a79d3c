package io.anteroom.gateway;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.core.annotation.AliasFor;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.ContextCustomizerFactories;
import org.springframework.test.context.TestPropertySource;

/**
 * The gateway as it ships (config/anteroom.yml, the test key, plain-HTTP cookies) on a random port,
 * pointed at the test class's own Redis and origin:
 *
 * <pre>{@code
 * @GatewayIntegrationTest(properties = "anteroom.rooms.shop.mode=queue-all")
 * class SomethingIntegrationTests {
 *   @RegisterExtension static RedisServerExtension redis = RedisServerExtension.create();
 *   @RegisterExtension static WireMockOrigin origin = new WireMockOrigin();
 * }</pre>
 *
 * <p>The static {@code RedisServerExtension} field sets {@code anteroom.redis.uri} and the static
 * {@link WireMockOrigin} field sets {@code ANTEROOM_ORIGIN}; either may be left out. A static {@code
 * LatencyProxy} field puts that proxy between the gateway and its Redis. Each test class
 * gets an application context of its own, as its Redis and origin are its own: a context shared
 * with a later class would stay wired to this class's servers after they stop ({@link
 * GatewayBackends}).
 *
 * <p>That context is closed after the class, as no other class can use it. Left in Spring's
 * context cache, each one kept its web servers' non-daemon threads, its scheduled tasks and its
 * Redis reconnection attempts running until the JVM exited, and closing them all then (each
 * waiting out Reactor Netty's two-second shutdown quiet period) took longer than the 30 seconds
 * Surefire gives a fork to exit, so Surefire killed it.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@TestPropertySource(
    properties = {
      GatewayTestSetup.CONFIG,
      GatewayTestSetup.KEYS,
      "anteroom.gateway.cookie-secure=false",
      "management.server.port=0"
    })
@ContextCustomizerFactories(GatewayBackends.class)
@DirtiesContext
public @interface GatewayIntegrationTest {

  /** More settings, {@code name=value}, on top of the shipped configuration. */
  @AliasFor(annotation = SpringBootTest.class, attribute = "properties")
  String[] properties() default {};

  /**
   * Whether the management port is a fixed free port rather than {@code 0}, as in production:
   * Spring Cloud Gateway keeps its routes off the management port by comparing with the configured
   * number, which {@code 0} would defeat. Read it with {@code @LocalManagementPort}.
   */
  boolean fixedManagementPort() default false;
}
