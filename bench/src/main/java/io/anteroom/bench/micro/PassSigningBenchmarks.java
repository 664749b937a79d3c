package io.anteroom.bench.micro;

import static io.anteroom.bench.micro.MicroGateway.complete;

import io.anteroom.gateway.token.Pass;
import io.anteroom.gateway.token.PassKeyProperties;
import io.anteroom.gateway.token.PassKeys;
import io.anteroom.gateway.token.PassSigning;
import io.anteroom.gateway.token.TokenCodec;
import io.anteroom.gateway.token.TokenKeys;
import io.anteroom.gateway.token.Verified;
import io.anteroom.gateway.token.VisitorIds;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.springframework.cloud.gateway.filter.GatewayFilter;
import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import reactor.core.publisher.Mono;

/**
 * What signing passes with Ed25519 or ES256 instead of HS256 costs. A pass holder's request: the
 * room's filter deciding on a request with a valid pass, on a gateway signing passes each way (each
 * benchmark forks its own JVM, so only its own gateway runs); the gateway keeps passes it verified
 * by their text, so all three should cost the same. Then the cost paid once per pass: issuing one
 * (signing), and reading one never seen (verifying and parsing), cycling through more passes than
 * are kept.
 */
public class PassSigningBenchmarks extends MicroDefaults {

  private static final GatewayFilterChain FORWARD = exchange -> Mono.empty();

  /** Twice as many as the gateway keeps verified (4096): every read is a first read. */
  private static final int FRESH_PASSES = 8192;

  /** A gateway signing passes with HS256, as shipped. */
  @State(Scope.Benchmark)
  public static class Hs256Gateway extends RunningGateway {
    public Hs256Gateway() {
      super(PassSigning.HS256);
    }
  }

  /** A gateway signing passes with a generated Ed25519 key. */
  @State(Scope.Benchmark)
  public static class Ed25519Gateway extends RunningGateway {
    public Ed25519Gateway() {
      super(PassSigning.ED25519);
    }
  }

  /** A gateway signing passes with a generated ES256 key. */
  @State(Scope.Benchmark)
  public static class Es256Gateway extends RunningGateway {
    public Es256Gateway() {
      super(PassSigning.ES256);
    }
  }

  /** The gateway as it ships, but for how it signs passes. */
  public abstract static class RunningGateway {
    private final PassSigning signing;
    MicroGateway gateway;
    GatewayFilter waitingRoom;

    RunningGateway(PassSigning signing) {
      this.signing = signing;
    }

    @Setup(Level.Trial)
    public void start() throws IOException {
      gateway =
          MicroGateway.start(
              signing.asymmetric()
                  ? List.of(
                      "--anteroom.tokens.pass-signing=" + signing.name().toLowerCase(Locale.ROOT),
                      "--anteroom.tokens.generate-dev-key=true")
                  : List.of());
      waitingRoom = FilterBenchmarks.waitingRoom(gateway);
      require(signedWith(gateway.pass(), signing), "the pass must be signed with " + signing);
    }

    @TearDown(Level.Trial)
    public void stop() {
      gateway.close();
    }
  }

  /** Codecs signing passes each way, and passes each has issued. */
  @State(Scope.Benchmark)
  public static class Codecs {
    final TokenCodec[] codecs = new TokenCodec[PassSigning.values().length];
    final String[][] fresh = new String[PassSigning.values().length][FRESH_PASSES];
    final String visitor = VisitorIds.newVisitorId();
    int next;

    @Setup(Level.Trial)
    public void setUp() {
      TokenKeys keys = new TokenKeys("main", Map.of("main", KEY));
      for (PassSigning signing : PassSigning.values()) {
        PassKeys passKeys =
            PassKeys.from(
                new PassKeyProperties(signing, null, null, null, null),
                true,
                keys.kids(),
                Clock.systemUTC());
        TokenCodec codec =
            new TokenCodec(
                keys,
                passKeys,
                "anteroom",
                Clock.systemUTC(),
                Duration.ofSeconds(30),
                Duration.ofHours(1));
        codecs[signing.ordinal()] = codec;
        for (int i = 0; i < FRESH_PASSES; i++) {
          fresh[signing.ordinal()][i] = issue(codec);
        }
        require(read(signing).isValid(), "fresh " + signing + " passes must be valid");
      }
    }

    String issue(TokenCodec codec) {
      return codec.issuePass(visitor, ROOM, List.of("42"), Duration.ofHours(1));
    }

    Verified<Pass> read(PassSigning signing) {
      next = (next + 1) % FRESH_PASSES;
      return codecs[signing.ordinal()].readPass(fresh[signing.ordinal()][next], ROOM);
    }
  }

  @Benchmark
  public void passHolderNoOpReference(Hs256Gateway gateway) {
    complete(FilterBenchmarks.NO_OP.filter(gateway.gateway.passHolder(), FORWARD));
  }

  @Benchmark
  public void hs256PassHolder(Hs256Gateway gateway) {
    complete(gateway.waitingRoom.filter(gateway.gateway.passHolder(), FORWARD));
  }

  @Benchmark
  public void ed25519PassHolder(Ed25519Gateway gateway) {
    complete(gateway.waitingRoom.filter(gateway.gateway.passHolder(), FORWARD));
  }

  @Benchmark
  public void es256PassHolder(Es256Gateway gateway) {
    complete(gateway.waitingRoom.filter(gateway.gateway.passHolder(), FORWARD));
  }

  @Benchmark
  public String hs256Issue(Codecs codecs) {
    return codecs.issue(codecs.codecs[PassSigning.HS256.ordinal()]);
  }

  @Benchmark
  public String ed25519Issue(Codecs codecs) {
    return codecs.issue(codecs.codecs[PassSigning.ED25519.ordinal()]);
  }

  @Benchmark
  public String es256Issue(Codecs codecs) {
    return codecs.issue(codecs.codecs[PassSigning.ES256.ordinal()]);
  }

  @Benchmark
  public Verified<Pass> hs256FirstRead(Codecs codecs) {
    return codecs.read(PassSigning.HS256);
  }

  @Benchmark
  public Verified<Pass> ed25519FirstRead(Codecs codecs) {
    return codecs.read(PassSigning.ED25519);
  }

  @Benchmark
  public Verified<Pass> es256FirstRead(Codecs codecs) {
    return codecs.read(PassSigning.ES256);
  }

  /** Whether {@code token}'s header names the algorithm of {@code signing}. */
  private static boolean signedWith(String token, PassSigning signing) {
    String header =
        new String(
            Base64.getUrlDecoder().decode(token.substring(0, token.indexOf('.'))),
            StandardCharsets.UTF_8);
    return header.contains("\"alg\":\"" + signing.algorithm().getName() + "\"");
  }
}
