package io.anteroom.gateway.line;

import io.anteroom.gateway.RedisGuard;
import io.anteroom.gateway.activation.ActiveQueueMirror;
import io.anteroom.gateway.activation.QueueGate;
import io.anteroom.gateway.client.ClientAddress;
import io.anteroom.gateway.identity.Identities;
import io.anteroom.gateway.pass.AnteroomCookies;
import io.anteroom.gateway.pass.DirectEntry;
import io.anteroom.gateway.pass.Passes;
import io.anteroom.gateway.pass.SessionChecks;
import io.anteroom.gateway.pass.Tickets;
import io.anteroom.gateway.proof.Proofs;
import io.anteroom.gateway.room.RoomPolicyMirror;
import io.anteroom.gateway.shadow.ShadowJoins;
import io.anteroom.gateway.token.TokenCodec;
import io.anteroom.queue.PlaceLimits;
import io.anteroom.queue.QueueStore;
import io.anteroom.queue.config.AnteroomProperties;
import io.anteroom.queue.log.ThrottledWarnings;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import org.slf4j.LoggerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The parts of a visitor's turn ({@link Turns}): who a request comes from ({@link Visits}), pass
 * holders ({@link Holders}), the line and its defences ({@link Meeting}, {@link Line}, {@link
 * PlaceGuard}), and what a waiting visitor is told ({@link RoomShares}).
 */
@Configuration(proxyBeanMethods = false)
public class LineConfiguration {

  @Bean
  LineEvents lineEvents(AnteroomProperties anteroom, MeterRegistry meters) {
    return new LineEvents(anteroom.rooms().keySet(), meters);
  }

  @Bean
  Line line(QueueStore store, RedisGuard redis, LineEvents events, RoomShares shares, Clock clock) {
    return new Line(store, redis, events, shares, clock);
  }

  @Bean
  RoomShares roomShares(ActiveQueueMirror mirror, RoomPolicyMirror policies) {
    return new RoomShares(mirror, policies);
  }

  @Bean
  Proofs proofs(TokenCodec tokens, AnteroomCookies cookies) {
    return new Proofs(tokens, cookies);
  }

  @Bean
  Visits visits(
      AnteroomCookies cookies,
      TokenCodec tokens,
      Tickets tickets,
      Identities identities,
      Proofs proofs,
      ClientAddress addresses,
      RoomPolicyMirror policies,
      TokenRejections rejections,
      Clock clock) {
    return new Visits(
        cookies, tokens, tickets, identities, proofs, addresses, policies, rejections, clock);
  }

  @Bean
  Turns turns(
      QueueGate gate,
      DirectEntry direct,
      SessionChecks checks,
      Passes passes,
      Tickets tickets,
      AnteroomCookies cookies,
      Line line,
      PlaceLimits limits,
      RedisGuard redis,
      Proofs proofs,
      RoomShares shares,
      ShadowJoins shadow,
      TokenRejections rejections,
      Clock clock) {
    // Failures the turn's parts log, each kind at most every 10 s.
    ThrottledWarnings warnings = ThrottledWarnings.of(LoggerFactory.getLogger(Turns.class), clock);
    Holders holders = new Holders(gate, direct, checks, passes, rejections, clock);
    Meeting meeting =
        new Meeting(
            line,
            new PlaceGuard(limits, redis, warnings),
            proofs,
            gate,
            passes,
            tickets,
            cookies,
            shares,
            rejections,
            warnings);
    return new Turns(
        gate, holders, meeting, direct, line, passes, tickets, cookies, shares, shadow);
  }
}
