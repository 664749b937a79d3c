package io.anteroom.queue;

/**
 * A room's figures against its room-wide limits, read at one moment.
 *
 * @param activeUsers visitors active on any of the room's items, each once, those idle past the
 *     room's idle limit not counted: what {@code total-active-users} limits
 * @param newUsersPerMinute visitors new to the room per minute, measured over about the last minute
 *     (started.lua): what {@code new-users-per-minute} limits; 0 until known
 * @param waiting people in line in the queues read, all together
 * @param full whether the room is marked at its limits, so that every newcomer waits
 */
public record RoomTotals(long activeUsers, double newUsersPerMinute, long waiting, boolean full) {}
