package io.anteroom.queue.redis;

import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.core.scheduler.Schedulers;
import reactor.util.retry.Retry;

/**
 * The shared {@link RedisConnector}, connected in the background when Redis cannot be reached at
 * start-up, so an app starts (and serves by its failure policy) without Redis and heals by itself
 * once Redis answers.
 *
 * <p>{@link #commands()} is usable at once: until the first connection, each command fails promptly
 * with a {@link RedisConnectionException}, as a command on a dropped connection does; after it,
 * commands go to the connector's connection. After the first connection the connector reconnects by
 * itself, as it always has.
 */
public final class DeferredRedisConnector implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(DeferredRedisConnector.class);

  /** Attempts back off from 100 ms to at most 1 s, so the app follows Redis closely. */
  static final Duration FIRST_RETRY = Duration.ofMillis(100);

  static final Duration MAX_RETRY = Duration.ofSeconds(1);

  private final Sinks.One<RedisConnector> connected = Sinks.one();
  private final RedisClusterAsyncCommands<String, String> commands;
  private final Disposable connecting;
  private volatile RedisConnector connector;
  private volatile boolean closed;

  private DeferredRedisConnector(Supplier<RedisConnector> connect) {
    this.commands = forwarding();
    RedisConnector first = tryOnce(connect);
    if (first != null) {
      connector = first;
      connected.tryEmitValue(first);
      connecting = null;
      return;
    }
    log.warn(
        "Redis cannot be reached at start-up; starting without it and connecting in the"
            + " background. Until then every Redis command fails at once, as in an outage");
    connecting =
        Mono.fromSupplier(connect)
            .subscribeOn(Schedulers.boundedElastic())
            .retryWhen(
                Retry.backoff(Long.MAX_VALUE, FIRST_RETRY)
                    .maxBackoff(MAX_RETRY)
                    .filter(error -> !closed))
            .doOnDiscard(RedisConnector.class, RedisConnector::close)
            .subscribe(this::connected, error -> {});
  }

  /**
   * Connects with {@code connect} (such as {@code () -> RedisConnector.connect(properties,
   * meters)}) now if Redis answers, or keeps trying in the background.
   */
  public static DeferredRedisConnector start(Supplier<RedisConnector> connect) {
    return new DeferredRedisConnector(connect);
  }

  /** Async commands: the connector's once connected, failing at once before; thread-safe. */
  public RedisClusterAsyncCommands<String, String> commands() {
    return commands;
  }

  /** Whether the first connection has been made. */
  public boolean isConnected() {
    return connector != null;
  }

  /** The connector, once the first connection has been made; never fails, completes on close. */
  public Mono<RedisConnector> connector() {
    return connected.asMono();
  }

  /** A new connection for subscriptions, once Redis has been reached; the caller closes it. */
  public Mono<StatefulRedisPubSubConnection<String, String>> connectPubSub() {
    return connector()
        .publishOn(Schedulers.boundedElastic())
        .map(RedisConnector::connectPubSub)
        .retryWhen(Retry.backoff(Long.MAX_VALUE, FIRST_RETRY).maxBackoff(MAX_RETRY));
  }

  @Override
  public synchronized void close() {
    closed = true;
    if (connecting != null) {
      connecting.dispose();
    }
    connected.tryEmitEmpty();
    RedisConnector current = connector;
    if (current != null) {
      current.close();
    }
  }

  private synchronized void connected(RedisConnector made) {
    if (closed) {
      made.close();
      return;
    }
    connector = made;
    connected.tryEmitValue(made);
    log.info("Redis reached: connected after starting without it");
  }

  private static RedisConnector tryOnce(Supplier<RedisConnector> connect) {
    try {
      return connect.get();
    } catch (RuntimeException e) {
      log.warn("Redis connection failed: {}", e.toString());
      return null;
    }
  }

  /** Commands that go to the current connector's, or fail before there is one. */
  @SuppressWarnings("unchecked")
  private RedisClusterAsyncCommands<String, String> forwarding() {
    InvocationHandler handler =
        (proxy, method, args) -> {
          if (method.getDeclaringClass() == Object.class) {
            return objectMethod(proxy, method, args);
          }
          RedisConnector current = connector;
          if (current == null) {
            return notConnected(method);
          }
          try {
            return method.invoke(current.commands(), args);
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
        };
    return (RedisClusterAsyncCommands<String, String>)
        Proxy.newProxyInstance(
            RedisClusterAsyncCommands.class.getClassLoader(),
            new Class<?>[] {RedisClusterAsyncCommands.class},
            handler);
  }

  private static Object objectMethod(Object proxy, Method method, Object[] args) {
    return switch (method.getName()) {
      case "equals" -> proxy == args[0];
      case "hashCode" -> System.identityHashCode(proxy);
      default -> "Redis commands (connecting in the background)";
    };
  }

  private static Object notConnected(Method method) {
    RedisConnectionException error =
        new RedisConnectionException("Redis has not been reached since start-up");
    if (method.getReturnType().isAssignableFrom(FailedFuture.class)) {
      return new FailedFuture<>(error);
    }
    if (method.getReturnType() == boolean.class) {
      return false;
    }
    throw error;
  }

  /** The answer to a command sent before Redis was reached. */
  private static final class FailedFuture<V> extends CompletableFuture<V>
      implements RedisFuture<V> {

    private final Throwable error;

    FailedFuture(Throwable error) {
      this.error = error;
      completeExceptionally(error);
    }

    @Override
    public String getError() {
      return error.getMessage();
    }

    @Override
    public boolean await(long timeout, TimeUnit unit) {
      return true;
    }
  }
}
