package io.timelinearchive.archive.read;

import static java.util.Objects.requireNonNull;

import io.timelinearchive.storage.StorageLocation;

/**
 * What reading one archive file found.
 *
 * @param length the file's length as listed
 * @param blocks valid blocks read
 * @param entries entries in those blocks, before de-duplication and range filtering
 * @param validLength where the last valid block ends; new blocks may be appended only to a file
 *     whose length is exactly this
 * @param truncatedTail whether the file ends with a block cut off by the end of the file
 */
public record ArchiveFileSummary(
    StorageLocation location,
    int version,
    long length,
    int blocks,
    int entries,
    long validLength,
    boolean truncatedTail) {

  public ArchiveFileSummary {
    requireNonNull(location, "location is null");
  }

  public String name() {
    return location.fileName();
  }
}
