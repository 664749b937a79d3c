package io.anteroom.gateway.proof;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * The puzzle a newcomer's browser solves before taking a place: find a decimal {@code counter} so
 * that SHA-256 of {@code challenge + "." + counter} (ASCII) starts with {@code difficulty} zero
 * bits. Finding one takes about 2<sup>difficulty</sup> hashes; checking one takes a single hash.
 */
public final class ProofOfWork {

  /** Longest counter accepted: far more than any browser will ever count to. */
  static final int MAX_COUNTER_DIGITS = 15;

  private ProofOfWork() {}

  /** Whether {@code counter} solves {@code challenge} at {@code difficulty} bits. */
  public static boolean solves(String challenge, String counter, int difficulty) {
    if (!isCounter(counter)) {
      return false;
    }
    byte[] hash = sha256(challenge + "." + counter);
    return leadingZeroBits(hash) >= difficulty;
  }

  /** The first counter from 0 up that solves {@code challenge}; for tests and tools. */
  public static String solve(String challenge, int difficulty) {
    for (long counter = 0; ; counter++) {
      String text = Long.toString(counter);
      if (solves(challenge, text, difficulty)) {
        return text;
      }
    }
  }

  static int leadingZeroBits(byte[] hash) {
    int bits = 0;
    for (byte b : hash) {
      if (b != 0) {
        return bits + Integer.numberOfLeadingZeros(b & 0xff) - 24;
      }
      bits += 8;
    }
    return bits;
  }

  private static boolean isCounter(String counter) {
    if (counter == null || counter.isEmpty() || counter.length() > MAX_COUNTER_DIGITS) {
      return false;
    }
    for (int i = 0; i < counter.length(); i++) {
      char c = counter.charAt(i);
      if (c < '0' || c > '9') {
        return false;
      }
    }
    return true;
  }

  private static byte[] sha256(String text) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.US_ASCII));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime has SHA-256", e);
    }
  }
}
