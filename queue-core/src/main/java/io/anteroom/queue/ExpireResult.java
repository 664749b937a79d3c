package io.anteroom.queue;

/**
 * What one expiry call did.
 *
 * @param expired idle sessions moved from running to finished
 * @param trimmed finished entries removed after the retention time
 */
public record ExpireResult(long expired, long trimmed) {}
