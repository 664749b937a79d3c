package io.anteroom.queue;

/**
 * What one admission call did.
 *
 * @param admitted visitors moved from waiting to running
 * @param abandoned visitors finished because they stopped polling
 * @param waiting people still in line
 * @param running admitted sessions after the call
 */
public record AdmitResult(long admitted, long abandoned, long waiting, long running) {}
