package io.anteroom.bench.crowd;

import java.util.Map;

/**
 * The gateway's heap right after a full collection, at one checkpoint.
 *
 * @param label what had happened by then
 * @param waiting people waiting in the crowd's line
 * @param viaGateway of those, how many joined through the gateway
 * @param liveBytes bytes of all objects still reachable, the total of {@code GC.class_histogram}
 * @param usedBytes heap in use as {@code GC.heap_info} reports it after that collection
 * @param rssBytes the gateway process's resident memory (VmRSS), heap and everything else
 * @param classes live bytes per class name
 */
record HeapReading(
    String label,
    long waiting,
    long viaGateway,
    long liveBytes,
    long usedBytes,
    long rssBytes,
    Map<String, Long> classes) {}
