package io.anteroom.queue.arrival;

/**
 * A newcomer who reached a room's filter, as a gateway records it.
 *
 * @param at when (epoch ms, the gateway's clock)
 * @param item the queue's item id as in keys ({@code _} for the room-wide line)
 */
public record Arrival(long at, String item) {}
