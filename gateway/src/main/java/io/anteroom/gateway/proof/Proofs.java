package io.anteroom.gateway.proof;

import io.anteroom.gateway.pass.AnteroomCookies;
import io.anteroom.gateway.token.Challenge;
import io.anteroom.gateway.token.Rejection;
import io.anteroom.gateway.token.TokenCodec;
import io.anteroom.gateway.token.Verified;
import io.anteroom.queue.QueueId;
import org.springframework.http.server.reactive.ServerHttpRequest;

/**
 * Reads a newcomer's answer to the proof-of-work challenge: {@code <challenge>.<counter>}, from the
 * cookie the waiting page sets or, for apps, the {@value #HEADER} request header. An answer is good
 * when its challenge is a valid one of this gateway for this queue, at least as hard as the room
 * asks now, and the counter solves it. The place is then taken for the visitor the challenge was
 * issued to, so one solution shared by many clients still holds only one place.
 */
public final class Proofs {

  /** Request header carrying an app's answer. */
  public static final String HEADER = "Anteroom-Proof";

  /** Longest answer read: a challenge token and a counter. */
  private static final int MAX_ANSWER = 2048;

  private final TokenCodec tokens;
  private final AnteroomCookies cookies;

  public Proofs(TokenCodec tokens, AnteroomCookies cookies) {
    this.tokens = tokens;
    this.cookies = cookies;
  }

  /** What a request's answer says. */
  public sealed interface Answer {
    /** Solved: the place is taken for {@code visitor}. */
    record Solved(String visitor) implements Answer {}

    /** No answer at all. */
    record Missing() implements Answer {}

    /** An answer that does not hold, and why. */
    record Wrong(Rejection reason) implements Answer {}
  }

  /**
   * The answer the request carries for {@code queue} at {@code difficulty} bits.
   *
   * @param known the visitor id the gateway already knows the request by (a bound identity or the
   *     holder of a pass for another queue), or null; an answer solved for anyone else is wrong
   */
  public Answer read(ServerHttpRequest request, QueueId queue, int difficulty, String known) {
    String answer = request.getHeaders().getFirst(HEADER);
    if (answer == null) {
      answer = cookies.proof(request, queue.room());
    }
    if (answer == null) {
      return new Answer.Missing();
    }
    int dot = answer.lastIndexOf('.');
    if (answer.length() > MAX_ANSWER || dot < 0) {
      return new Answer.Wrong(Rejection.MALFORMED);
    }
    String token = answer.substring(0, dot);
    Verified<Challenge> challenge = tokens.readChallenge(token, queue.room());
    if (challenge instanceof Verified.Rejected<Challenge> rejected) {
      return new Answer.Wrong(rejected.reason());
    }
    Challenge valid = ((Verified.Valid<Challenge>) challenge).value();
    if (!valid.queue().equals(queue)) {
      return new Answer.Wrong(Rejection.WRONG_QUEUE);
    }
    if (valid.difficulty() < difficulty
        || !ProofOfWork.solves(token, answer.substring(dot + 1), valid.difficulty())) {
      return new Answer.Wrong(Rejection.PROOF);
    }
    if (known != null && !known.equals(valid.visitor())) {
      return new Answer.Wrong(Rejection.PROOF);
    }
    return new Answer.Solved(valid.visitor());
  }

  /** A new challenge for {@code visitor} to take a place in {@code queue}. */
  public String challenge(String visitor, QueueId queue, int difficulty) {
    return tokens.issueChallenge(visitor, queue, difficulty);
  }
}
