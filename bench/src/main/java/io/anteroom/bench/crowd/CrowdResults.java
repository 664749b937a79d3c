package io.anteroom.bench.crowd;

import java.time.Instant;
import java.util.List;

/**
 * Everything one run measured, for {@link CrowdReport}.
 *
 * @param loadAtStart load averages when it started
 * @param loadAtEnd load averages when it finished
 * @param minutes how long it took, start-up included
 * @param collector the gateway's garbage collector as it names its heap
 * @param openers joins sent to the crowd's line before a waiting answer came (the first may be let
 *     in at once)
 * @param chunks the crowd's later joins through the gateway, between heap readings
 * @param viaGateway people in the crowd's line who joined through the gateway
 * @param direct people written straight into Redis after the gateway's time ran out
 * @param directSeconds how long that took
 * @param readings heap readings, in order
 * @param status the status polls at the end
 * @param lineLength people in the crowd's line at the end (ZCARD)
 * @param redisUsedMemory Redis {@code used_memory} at the end, bytes
 * @param redisEmptyMemory Redis {@code used_memory} before anyone joined, bytes
 * @param gatewayWarnings the gateway's WARN and ERROR log lines
 */
record CrowdResults(
    CrowdOptions options,
    Services services,
    String loadAtStart,
    String loadAtEnd,
    Instant started,
    double minutes,
    String redisVersion,
    String collector,
    WarmUp warmup,
    int openers,
    BurstResult burst,
    List<ChunkResult> chunks,
    long viaGateway,
    long direct,
    double directSeconds,
    List<HeapReading> readings,
    StatusSample status,
    long lineLength,
    long redisUsedMemory,
    long redisEmptyMemory,
    List<String> gatewayWarnings) {

  /** Whether both goals were met and the status polls answered every position right. */
  boolean passed() {
    return burst.passed() && HeapTrend.of(readings).flat(options.visitors()) && status.passed();
  }
}
