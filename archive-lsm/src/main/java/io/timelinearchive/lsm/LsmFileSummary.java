package io.timelinearchive.lsm;

import static java.util.Objects.requireNonNull;

import io.timelinearchive.storage.StorageLocation;

/**
 * What reading one history file found.
 *
 * @param location the file
 * @param name its name, parsed
 * @param length its length in bytes as read
 * @param manifestLength its length as the manifest lists it
 * @param rows the rows it holds, before range filtering and de-duplication
 */
public record LsmFileSummary(
    StorageLocation location, LsmFileName name, long length, long manifestLength, long rows) {
  public LsmFileSummary {
    requireNonNull(location, "location is null");
    requireNonNull(name, "name is null");
  }
}
