package io.anteroom.bench.micro;

import io.anteroom.gateway.token.Pass;
import io.anteroom.gateway.token.Ticket;
import io.anteroom.gateway.token.TokenCodec;
import io.anteroom.gateway.token.TokenKeys;
import io.anteroom.gateway.token.Verified;
import io.anteroom.gateway.token.VisitorIds;
import io.anteroom.queue.QueueId;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Setup;

/**
 * Reading the tokens a visitor's browser sends: a valid pass (every request of an admitted
 * visitor), a valid ticket (every poll of a waiting one), a pass whose signature was forged and a
 * cookie that is not a token at all. The gateway keeps the claims of tokens it verified lately, so
 * {@code readPass} and {@code readTicket} measure a token read again; {@code readFreshPass} cycles
 * through more passes than are kept, so each read verifies the MAC and parses the claims. Each
 * answer is checked once at setup, so a benchmark that measured a rejection where it meant an
 * acceptance fails before it measures anything.
 */
public class TokenBenchmarks extends MicroDefaults {

  private TokenCodec codec;
  private String pass;
  private String ticket;
  private String forged;
  private String garbage;
  private String[] fresh;
  private int next;

  /** Twice as many as the gateway keeps verified (4096): every read is a first read. */
  private static final int FRESH_PASSES = 8192;

  @Setup
  public void setUp() {
    // A codec as the gateway builds it: one HS256 key, the shipped issuer and leeway.
    codec =
        new TokenCodec(
            new TokenKeys("main", Map.of("main", KEY)),
            "anteroom",
            Clock.systemUTC(),
            Duration.ofSeconds(30),
            Duration.ofHours(1));
    String visitor = VisitorIds.newVisitorId();
    pass = codec.issuePass(visitor, ROOM, List.of("42"), Duration.ofHours(1));
    ticket = codec.issueTicket(visitor, QueueId.of(ROOM, "42"));
    // Same header and claims, first signature character changed (the last one holds padding bits
    // that may not change the bytes): only the MAC can tell.
    int signature = pass.lastIndexOf('.') + 1;
    char first = pass.charAt(signature);
    forged =
        pass.substring(0, signature) + (first == 'A' ? 'B' : 'A') + pass.substring(signature + 1);
    garbage = "not-a-token.at all";
    fresh = new String[FRESH_PASSES];
    for (int i = 0; i < fresh.length; i++) {
      fresh[i] = codec.issuePass(visitor, ROOM, List.of("42"), Duration.ofHours(1));
    }
    require(readPass().isValid(), "the pass must be valid");
    require(readTicket().isValid(), "the ticket must be valid");
    require(readFreshPass().isValid(), "the fresh passes must be valid");
    require(!rejectForged().isValid(), "the forged pass must be rejected");
    require(!rejectGarbage().isValid(), "the garbage must be rejected");
  }

  @Benchmark
  public Verified<Pass> readPass() {
    return codec.readPass(pass, ROOM);
  }

  @Benchmark
  public Verified<Pass> readFreshPass() {
    next = (next + 1) % fresh.length;
    return codec.readPass(fresh[next], ROOM);
  }

  @Benchmark
  public Verified<Ticket> readTicket() {
    return codec.readTicket(ticket, ROOM);
  }

  @Benchmark
  public Verified<Pass> rejectForged() {
    return codec.readPass(forged, ROOM);
  }

  @Benchmark
  public Verified<Pass> rejectGarbage() {
    return codec.readPass(garbage, ROOM);
  }
}
