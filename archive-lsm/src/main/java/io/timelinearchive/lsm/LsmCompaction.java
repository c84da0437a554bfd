package io.timelinearchive.lsm;

import static java.util.Objects.requireNonNull;

import io.timelinearchive.storage.StorageLocation;
import java.util.List;

/**
 * What {@link LsmHistoryWriter#compactAndClean} did.
 *
 * @param snapshot the snapshot it left current
 * @param merges the files merged, layer by layer from layer 0, each with the manifest that made it
 *     current
 * @param deletedManifests the manifests the clean deleted (old ones, and any a crashed commit left
 *     above the current one)
 * @param deletedFiles the history files the clean deleted: those no kept manifest lists
 */
public record LsmCompaction(
    LsmSnapshot snapshot,
    List<Merge> merges,
    List<StorageLocation> deletedManifests,
    List<StorageLocation> deletedFiles) {

  /**
   * One merge: {@code sources}, of one layer, into {@code target}, of the next.
   *
   * @param manifest the version of the manifest that replaced the sources by the target
   */
  public record Merge(List<LsmManifest.Entry> sources, LsmManifest.Entry target, int manifest) {
    public Merge {
      sources = List.copyOf(sources);
      requireNonNull(target, "target is null");
    }
  }

  public LsmCompaction {
    requireNonNull(snapshot, "snapshot is null");
    merges = List.copyOf(merges);
    deletedManifests = List.copyOf(deletedManifests);
    deletedFiles = List.copyOf(deletedFiles);
  }
}
