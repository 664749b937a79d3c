package io.anteroom.bench.micro;

import org.reactivestreams.Publisher;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import org.springframework.http.server.reactive.AbstractServerHttpResponse;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * A response that goes nowhere. Spring's mock response builds an exception for its empty body on
 * construction; this one costs about what a server's own response object does.
 */
final class BareResponse extends AbstractServerHttpResponse {

  BareResponse() {
    super(DefaultDataBufferFactory.sharedInstance);
  }

  @Override
  public <T> T getNativeResponse() {
    throw new UnsupportedOperationException("no native response");
  }

  @Override
  protected void applyStatusCode() {}

  @Override
  protected void applyHeaders() {}

  @Override
  protected void applyCookies() {}

  @Override
  protected Mono<Void> writeWithInternal(Publisher<? extends DataBuffer> body) {
    return Flux.from(body).doOnNext(DataBufferUtils::release).then();
  }

  @Override
  protected Mono<Void> writeAndFlushWithInternal(
      Publisher<? extends Publisher<? extends DataBuffer>> body) {
    return Flux.from(body).flatMap(this::writeWithInternal).then();
  }
}
