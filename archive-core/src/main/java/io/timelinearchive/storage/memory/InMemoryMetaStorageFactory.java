package io.timelinearchive.storage.memory;

import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.MetaStorageFactory;
import io.timelinearchive.storage.StorageLocation;
import io.timelinearchive.storage.memory.InMemoryMetaStorage.Blob;
import java.time.Clock;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentNavigableMap;

/**
 * The {@code memory} scheme: {@code memory://volume/path}. Each authority names one volume that
 * lives as long as the JVM, so every storage opened on it sees the same files.
 */
public final class InMemoryMetaStorageFactory implements MetaStorageFactory {
  public static final String SCHEME = "memory";
  private static final Map<String, ConcurrentNavigableMap<String, Blob>> VOLUMES =
      new ConcurrentHashMap<>();

  @Override
  public Set<String> schemes() {
    return Set.of(SCHEME);
  }

  @Override
  public MetaStorage open(StorageLocation root, Map<String, String> config) {
    if (!root.scheme().equals(SCHEME)) {
      throw new IllegalArgumentException("not a memory location: " + root);
    }
    return new InMemoryMetaStorage(
        SCHEME,
        VOLUMES.computeIfAbsent(root.authority(), a -> InMemoryMetaStorage.newVolume()),
        Clock.systemUTC());
  }

  /** Forgets a volume and its files. */
  public static void dropVolume(String authority) {
    VOLUMES.remove(authority);
  }
}
