package io.anteroom.gateway.monitoring;

import io.anteroom.queue.redis.DeferredRedisConnector;
import io.anteroom.worker.AdmissionWorkerApplication;
import io.anteroom.worker.admission.AdmissionLoop;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.sync.RedisCommands;
import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The admission worker application as it ships, started in this JVM beside a gateway under test:
 * its own application.yml and the shared config/anteroom.yml, its own Redis connection and its
 * actuator on a free port. The gateway's classes share the class path, so its application.yml is
 * kept out by naming the worker's file, and Spring Cloud Gateway's auto-configuration is off.
 * Settings are given as command-line arguments, which rank above the configuration files.
 */
public final class WorkerApp implements AutoCloseable {

  private final ConfigurableApplicationContext context;
  private final RedisClient client;
  private RedisCommands<String, String> redis;

  /**
   * Starts the worker; Redis need not be up yet.
   *
   * @param extra more {@code --name=value} arguments
   */
  public WorkerApp(String redisUri, String tick, String... extra) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "--spring.config.location=file:../admission-worker/src/main/resources/application.yml",
                "--spring.cloud.gateway.server.webflux.enabled=false",
                "--ANTEROOM_CONFIG=../config/anteroom.yml",
                "--anteroom.redis.uri=" + redisUri,
                "--anteroom.worker.tick=" + tick,
                "--server.port=0"));
    args.addAll(List.of(extra));
    this.context =
        new SpringApplicationBuilder(AdmissionWorkerApplication.class)
            .run(args.toArray(String[]::new));
    this.client = RedisClient.create(redisUri);
  }

  /** Direct commands to the worker's Redis, to hold what it reports against the sets themselves. */
  synchronized RedisCommands<String, String> redis() {
    if (redis == null) {
      redis = client.connect().sync();
    }
    return redis;
  }

  /** The port of the worker's actuator. */
  public int port() {
    return Integer.parseInt(context.getEnvironment().getProperty("local.server.port"));
  }

  /**
   * Stops the worker as a dying process would, as far as Redis can tell: its connection is dropped
   * under the tick in flight (Redis completes at most the script it was running), and the loop
   * ticks no more. The application stays up, inert, until {@link #close}: closing it would also
   * dispose of Reactor Netty's global resources, which gateways in this JVM serve on.
   */
  public void kill() {
    context.getBean(DeferredRedisConnector.class).close();
    context.getBean(AdmissionLoop.class).stop();
  }

  /** True until {@link #kill}. */
  public boolean isAdmitting() {
    return context.getBean(AdmissionLoop.class).isRunning();
  }

  @Override
  public void close() {
    context.close();
    client.shutdown();
  }
}
