package io.timelinearchive.storage;

import java.util.Optional;

/**
 * A store seen as one without append (like S3 or GCS), so the archiver's one-file-per-run path runs
 * on the in-memory and local stores too.
 */
public final class WithoutAppendMetaStorage extends ForwardingMetaStorage {
  public WithoutAppendMetaStorage(MetaStorage delegate) {
    super(delegate);
  }

  @Override
  public boolean supportsAppend() {
    return false;
  }

  @Override
  public Optional<AppendableLog> openLog(StorageLocation file) {
    return Optional.empty();
  }
}
