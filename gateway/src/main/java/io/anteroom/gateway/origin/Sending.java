package io.anteroom.gateway.origin;

import io.micrometer.core.instrument.Clock;
import java.net.ConnectException;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.server.reactive.ServerHttpRequestDecorator;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Flux;

/**
 * One forwarded request on its way to the origin: when forwarding began, and when its body had all
 * gone out, so that what is timed of the origin (its meters, the auto-pilot, re-entry) starts once
 * the origin has the whole request. A client dripping its body moves only the part before that. The
 * moment is noted as the body the framework sends on ({@link #watch}) completes; a bodiless request
 * completes as soon as forwarding starts. Kept in the exchange's attributes ({@link #of}).
 */
public final class Sending {

  private static final String ATTRIBUTE = Sending.class.getName();
  private static final long UNSENT = Long.MIN_VALUE;

  private final Clock clock;
  private final long start;
  private volatile long sending = UNSENT;
  private volatile long sent = UNSENT;
  private volatile boolean withheld;

  Sending(Clock clock) {
    this.clock = clock;
    this.start = clock.monotonicTime();
  }

  /** The sending of the request {@code exchange} forwards, or null when it is not timed. */
  public static Sending of(ServerWebExchange exchange) {
    return exchange.getAttribute(ATTRIBUTE);
  }

  /** {@code exchange}, its request's body watched for its end, this sending in its attributes. */
  ServerWebExchange watch(ServerWebExchange exchange) {
    exchange.getAttributes().put(ATTRIBUTE, this);
    return exchange
        .mutate()
        .request(
            new ServerHttpRequestDecorator(exchange.getRequest()) {
              @Override
              public Flux<DataBuffer> getBody() {
                return super.getBody()
                    .doOnSubscribe(subscription -> sending())
                    .doOnComplete(Sending.this::sent);
              }
            })
        .build();
  }

  /**
   * {@code body}, read whole before forwarding ({@code edge/BodyBuffer}), watched as what goes to
   * the origin in place of the client's: the sending is timed from it, not from the client's
   * upload.
   */
  public Flux<DataBuffer> forwarding(Flux<DataBuffer> body) {
    sending = UNSENT;
    sent = UNSENT;
    return body.doOnSubscribe(subscription -> sending()).doOnComplete(this::sent);
  }

  private void sending() {
    if (sending == UNSENT) {
      sending = clock.monotonicTime();
    }
  }

  private void sent() {
    if (sent == UNSENT) {
      sent = clock.monotonicTime();
    }
  }

  /**
   * Notes that the gateway ended the request without forwarding it ({@code edge/BodyBuffer}: a body
   * refused, or a client gone before its body arrived): nothing of the origin is measured.
   */
  public void withheld() {
    withheld = true;
  }

  /** Whether the request went, or goes, to the origin: not {@link #withheld}. */
  boolean forwarded() {
    return !withheld;
  }

  /** Whether the whole request has gone to the origin. */
  boolean fullySent() {
    return sent != UNSENT;
  }

  /**
   * How long the origin has had the whole request at {@code now} (nanoseconds, the meters' clock);
   * for a request not fully sent yet, the time since forwarding began when {@code refused} (the
   * origin never took the connection, whatever the body), otherwise 0.
   */
  long originNanos(long now, boolean refused) {
    long at = sent;
    return at != UNSENT ? now - at : refused ? now - start : 0;
  }

  /**
   * Whether a failure now is the origin's own: it refused the connection, or it has had the whole
   * request at least as long as the client took to send the body once the gateway began sending it
   * (the connection's set-up is no client's doing). A timeout or a closed connection while the body
   * still drips, or soon after it ends, is the client's doing.
   */
  public boolean originsOwn(Throwable error) {
    if (refused(error)) {
      return true;
    }
    long at = sent;
    return at != UNSENT && clock.monotonicTime() - at >= at - sending;
  }

  /** Whether {@code error} says the origin could not be connected to. */
  static boolean refused(Throwable error) {
    return Causes.any(error, cause -> cause instanceof ConnectException);
  }
}
