package io.timelinearchive.archive;

import java.io.IOException;

/**
 * Told once per phase, when a run first enters it: for progress output, and for tests that stop or
 * pause a run at a precise point (a crash between two phases, a holder paused past its lease).
 */
@FunctionalInterface
public interface ArchiveListener {
  ArchiveListener NONE = phase -> {};

  void onPhase(Phase phase) throws IOException;

  /**
   * Told as a long phase advances: {@code done} of {@code total} (instant files read, pending files
   * deleted, completed files deleted). Called once per item, so a listener that prints throttles.
   */
  default void onProgress(Phase phase, long done, long total) throws IOException {}
}
