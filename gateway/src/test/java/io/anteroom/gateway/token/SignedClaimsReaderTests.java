package io.anteroom.gateway.token;

import static io.anteroom.gateway.token.TokenFixtures.LIFETIME;
import static io.anteroom.gateway.token.TokenFixtures.ROOM;
import static io.anteroom.gateway.token.TokenFixtures.VISITOR;
import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.time.MutableClock;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The short way for tokens with the gateway's own headers answers exactly as the full read. */
class SignedClaimsReaderTests {

  private static final JOSEObjectType PASS = new JOSEObjectType(TokenCodec.PASS_TYPE);
  private static final JOSEObjectType TICKET = new JOSEObjectType(TokenCodec.TICKET_TYPE);

  private final MutableClock clock = MutableClock.startingAt2026();
  private final TokenCodec codec = TokenFixtures.codec(clock);
  private final SignedClaimsReader shortWay =
      new SignedClaimsReader(TokenFixtures.k1(), List.of(header(PASS), header(TICKET)));
  private final SignedClaimsReader fullWay = new SignedClaimsReader(TokenFixtures.k1(), List.of());

  @Test
  void ownPassAndTicketAreReadTheShortWayWithTheSameClaims() {
    String pass = codec.issuePass(VISITOR, ROOM, List.of("sku-1"), LIFETIME);
    String ticket = codec.issueTicket(VISITOR, QueueId.of(ROOM, "sku-1"));

    assertThat(shortWay.read(pass, PASS))
        .isEqualTo(fullWay.read(pass, PASS))
        .matches(Verified::isValid);
    assertThat(shortWay.read(ticket, TICKET))
        .isEqualTo(fullWay.read(ticket, TICKET))
        .matches(Verified::isValid);
    assertThat(shortWay.read(ticket, PASS)).isEqualTo(Verified.rejected(Rejection.TYPE));
  }

  @Test
  void randomlyMutatedTokensGetTheSameAnswerBothWays() {
    List<String> tokens =
        List.of(
            codec.issuePass(VISITOR, ROOM, List.of("sku-1", "sku-2"), LIFETIME),
            codec.issueTicket(VISITOR, QueueId.of(ROOM, "sku-1")));
    Random random = new Random(20261203);
    // Base64url, the other base64 alphabet, padding, separators, JSON and non-ASCII characters.
    String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.=+/ {}\"é€";
    int valid = 0;
    for (int i = 0; i < 5_000; i++) {
      String token = tokens.get(i % 2);
      StringBuilder mutated = new StringBuilder(token);
      for (int edits = 1 + random.nextInt(3); edits > 0; edits--) {
        int at = random.nextInt(mutated.length());
        char c = alphabet.charAt(random.nextInt(alphabet.length()));
        switch (random.nextInt(3)) {
          case 0 -> mutated.setCharAt(at, c);
          case 1 -> mutated.insert(at, c);
          default -> mutated.deleteCharAt(at);
        }
      }
      for (JOSEObjectType type : List.of(PASS, TICKET)) {
        Verified<Map<String, Object>> answer = shortWay.read(mutated.toString(), type);
        assertThat(answer).as(mutated.toString()).isEqualTo(fullWay.read(mutated.toString(), type));
        valid += answer.isValid() ? 1 : 0;
      }
    }
    // Only the unused low bits of a signature's last character may change unnoticed: some, rarely.
    assertThat(valid).isLessThan(500);
  }

  private static JWSHeader header(JOSEObjectType type) {
    return new JWSHeader.Builder(JWSAlgorithm.HS256).type(type).keyID("k1").build();
  }

  @Test
  void aTokenReadAgainGetsTheSameAnswerAndItsForgeriesStillFail() {
    String pass = codec.issuePass(VISITOR, ROOM, List.of("sku-1"), LIFETIME);
    Verified<Map<String, Object>> first = shortWay.read(pass, PASS);
    int signature = pass.lastIndexOf('.') + 1;
    String forged =
        pass.substring(0, signature)
            + (pass.charAt(signature) == 'A' ? 'B' : 'A')
            + pass.substring(signature + 1);

    assertThat(shortWay.read(pass, PASS)).isEqualTo(first).matches(Verified::isValid);
    assertThat(shortWay.read(new String(pass.toCharArray()), PASS)).isEqualTo(first);
    assertThat(shortWay.read(forged, PASS)).isEqualTo(Verified.rejected(Rejection.SIGNATURE));
    assertThat(shortWay.read(pass, TICKET)).isEqualTo(Verified.rejected(Rejection.TYPE));
  }

  @Test
  void moreTokensThanAreKeptAreAllStillReadRight() {
    List<String> passes = new java.util.ArrayList<>();
    for (int i = 0; i < SignedClaimsReader.MAX_VERIFIED + 10; i++) {
      passes.add(codec.issuePass(VISITOR, ROOM, List.of("sku-" + (i % 7)), LIFETIME));
    }
    for (int round = 0; round < 2; round++) {
      for (String pass : passes) {
        assertThat(shortWay.read(pass, PASS)).isEqualTo(fullWay.read(pass, PASS));
      }
    }
  }
}
