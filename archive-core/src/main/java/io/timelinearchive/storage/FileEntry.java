package io.timelinearchive.storage;

import static java.util.Objects.requireNonNull;

import java.time.Instant;

/** One file found by {@link MetaStorage#list}. */
public record FileEntry(StorageLocation location, long length, Instant lastModified) {
  public FileEntry {
    requireNonNull(location, "location is null");
    requireNonNull(lastModified, "lastModified is null");
    if (length < 0) {
      throw new IllegalArgumentException("negative length " + length + " for " + location);
    }
  }

  public String name() {
    return location.fileName();
  }
}
