package io.timelinearchive.storage.local;

import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.MetaStorageFactory;
import io.timelinearchive.storage.StorageLocation;
import java.util.Map;
import java.util.Set;

/** The {@code file} scheme: {@code file:///path}, {@code file:/path} or a bare {@code /path}. */
public final class LocalMetaStorageFactory implements MetaStorageFactory {
  public static final String SCHEME = LocalMetaStorage.SCHEME;

  @Override
  public Set<String> schemes() {
    return Set.of(SCHEME);
  }

  @Override
  public MetaStorage open(StorageLocation root, Map<String, String> config) {
    if (!root.scheme().equals(SCHEME)) {
      throw new IllegalArgumentException("not a file location: " + root);
    }
    if (!root.authority().isEmpty()) {
      throw new IllegalArgumentException(
          "a file location has no authority (write file:///path): " + root);
    }
    return new LocalMetaStorage(true, LocalExclusiveCreate.DEFAULT_LOCK_WAIT);
  }
}
