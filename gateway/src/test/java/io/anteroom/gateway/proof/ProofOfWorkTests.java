package io.anteroom.gateway.proof;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import org.junit.jupiter.api.Test;

class ProofOfWorkTests {

  static final String CHALLENGE = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl";

  @Test
  void countsLeadingZeroBitsAcrossBytes() {
    assertThat(ProofOfWork.leadingZeroBits(new byte[] {(byte) 0x80, 0})).isZero();
    assertThat(ProofOfWork.leadingZeroBits(new byte[] {0x01, 0})).isEqualTo(7);
    assertThat(ProofOfWork.leadingZeroBits(new byte[] {0, 0x10})).isEqualTo(11);
    assertThat(ProofOfWork.leadingZeroBits(new byte[] {0, 0})).isEqualTo(16);
  }

  @Test
  void aSolutionHasTheLeadingZeroBitsOfItsSha256() throws Exception {
    for (int difficulty = 1; difficulty <= 14; difficulty++) {
      String counter = ProofOfWork.solve(CHALLENGE, difficulty);
      byte[] hash =
          MessageDigest.getInstance("SHA-256")
              .digest((CHALLENGE + "." + counter).getBytes(StandardCharsets.US_ASCII));
      int bits = ProofOfWork.leadingZeroBits(hash);

      assertThat(bits).isGreaterThanOrEqualTo(difficulty);
      assertThat(ProofOfWork.solves(CHALLENGE, counter, bits)).isTrue();
      assertThat(ProofOfWork.solves(CHALLENGE, counter, bits + 1)).isFalse();
      assertThat(ProofOfWork.solves(CHALLENGE + "x", counter, bits)).isFalse();
    }
  }

  @Test
  void onlyPlainDecimalCountersOfSensibleLengthAreRead() {
    String counter = ProofOfWork.solve(CHALLENGE, 4);
    assertThat(ProofOfWork.solves(CHALLENGE, counter, 4)).isTrue();
    for (String odd :
        new String[] {"", " 1", "+1", "-1", "1e3", "0x1", "١", "9".repeat(16), null}) {
      assertThat(ProofOfWork.solves(CHALLENGE, odd, 0)).as("'%s'", odd).isFalse();
    }
  }
}
