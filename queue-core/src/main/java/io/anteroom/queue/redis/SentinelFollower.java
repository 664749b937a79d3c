package io.anteroom.queue.redis;

import io.lettuce.core.KillArgs;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Moves the shared connection to a new primary as soon as the Sentinels announce it ({@code
 * +switch-master}). A connection only asks the Sentinels for the primary when it reconnects, and a
 * former primary that is still up (an operator's failover, a network split) keeps taking writes
 * until the Sentinels turn it into a replica, seconds later: everything written there in between is
 * lost. So on the announcement the connection closes itself ({@code CLIENT KILL ID} of its own id)
 * and reconnects through the Sentinels.
 */
final class SentinelFollower extends RedisPubSubAdapter<String, String> implements AutoCloseable {

  static final String SWITCH_MASTER = "+switch-master";

  private static final Logger log = LoggerFactory.getLogger(SentinelFollower.class);

  private final String masterName;
  private final StatefulRedisConnection<String, String> connection;
  private final List<StatefulRedisPubSubConnection<String, String>> subscriptions =
      new ArrayList<>();
  private final AtomicReference<String> followed = new AtomicReference<>("");

  private SentinelFollower(String masterName, StatefulRedisConnection<String, String> connection) {
    this.masterName = masterName;
    this.connection = connection;
  }

  /**
   * Subscribes to the announcements of every Sentinel of {@code uri} that answers now; one is
   * enough, and subscriptions come back by themselves after a Sentinel restarts.
   */
  static SentinelFollower follow(
      RedisClient client, RedisURI uri, StatefulRedisConnection<String, String> connection) {
    SentinelFollower follower = new SentinelFollower(uri.getSentinelMasterId(), connection);
    for (RedisURI sentinel : uri.getSentinels()) {
      try {
        StatefulRedisPubSubConnection<String, String> subscription =
            client.connectPubSub(StringCodec.UTF8, sentinel);
        subscription.addListener(follower);
        follower.subscriptions.add(subscription);
        subscription.sync().subscribe(SWITCH_MASTER);
      } catch (RuntimeException e) {
        log.warn(
            "Cannot follow Sentinel {}:{}; failovers are still followed on reconnect: {}",
            sentinel.getHost(),
            sentinel.getPort(),
            e.toString());
      }
    }
    return follower;
  }

  /** {@code <master-name> <old-ip> <old-port> <new-ip> <new-port>}; each Sentinel sends it. */
  @Override
  public void message(String channel, String message) {
    String[] parts = message.split(" ");
    if (!SWITCH_MASTER.equals(channel) || parts.length != 5 || !parts[0].equals(masterName)) {
      return;
    }
    String primary = parts[3] + ":" + parts[4];
    if (primary.equals(followed.getAndSet(primary))) {
      return;
    }
    log.info("Sentinels switched {} to {}; reconnecting to it", masterName, primary);
    RedisAsyncCommands<String, String> commands = connection.async();
    commands
        .clientId()
        .thenCompose(id -> commands.clientKill(KillArgs.Builder.id(id).skipme(false)))
        .exceptionally(alreadyDisconnected -> 0L);
  }

  @Override
  public void close() {
    subscriptions.forEach(StatefulRedisPubSubConnection::close);
  }
}
