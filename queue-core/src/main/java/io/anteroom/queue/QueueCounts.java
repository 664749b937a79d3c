package io.anteroom.queue;

/**
 * Sizes of one queue's sets and its lifetime counters.
 *
 * @param waiting people in line
 * @param running admitted sessions
 * @param finished finished entries within the retention time
 * @param enqueued visitors who joined the line (not counting those admitted at once)
 * @param admitted visitors admitted, at once or from the line
 * @param abandoned visitors finished because they stopped polling
 * @param expired sessions ended by idleness
 * @param released sessions ended early, or places given up on request
 */
public record QueueCounts(
    long waiting,
    long running,
    long finished,
    long enqueued,
    long admitted,
    long abandoned,
    long expired,
    long released) {}
