package io.timelinearchive.archive;

/**
 * Told when a run enters each phase: for progress output, and for tests that stop or pause a run at
 * a precise point (a crash between two phases, a holder paused past its lease).
 */
@FunctionalInterface
public interface ArchiveListener {
  ArchiveListener NONE = phase -> {};

  enum Phase {
    LOCK,
    RECOVER,
    SELECT,
    READ,
    WRITE,
    DELETE_PENDING,
    DELETE_COMPLETED
  }

  void onPhase(Phase phase) throws java.io.IOException;
}
