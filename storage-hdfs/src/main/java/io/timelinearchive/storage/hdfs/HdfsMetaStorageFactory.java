package io.timelinearchive.storage.hdfs;

import static java.util.Objects.requireNonNull;

import io.timelinearchive.config.SettingNamespace;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.MetaStorageFactory;
import io.timelinearchive.storage.StorageLocation;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Storage on Hadoop's {@code FileSystem} API for {@code hdfs://} and {@code viewfs://} locations.
 *
 * <p>Settings ({@link HdfsConfig}): every {@code hadoop.}-prefixed key of the config, prefix
 * stripped, is a Hadoop setting laid over {@code core-site.xml} and {@code hdfs-site.xml} from the
 * classpath, e.g. {@code hadoop.fs.defaultFS=hdfs://nn:8020}, except our own {@link
 * HdfsConfig#SETTINGS}: {@code hadoop.schemes=ofs,jfs} lets this factory open roots of further
 * Hadoop schemes (their FileSystem must be on the classpath); {@code hadoop.lease-recovery-timeout}
 * (default 10s) bounds how long {@code openLog} waits for HDFS to recover a file another writer
 * left open. Kerberos is Hadoop's own: set {@code hadoop.security.authentication=kerberos} in
 * {@code core-site.xml} and log in (kinit or keytab) as for any Hadoop client.
 */
public final class HdfsMetaStorageFactory implements MetaStorageFactory {

  @Override
  public Set<String> schemes() {
    return HdfsConfig.DEFAULT_SCHEMES;
  }

  @Override
  public Set<String> schemes(Map<String, String> config) {
    return HdfsConfig.from(config).schemes();
  }

  @Override
  public List<SettingNamespace> settingNamespaces() {
    return List.of(HdfsConfig.NAMESPACE);
  }

  @Override
  public MetaStorage open(StorageLocation root, Map<String, String> config) throws IOException {
    requireNonNull(root, "root is null");
    HdfsConfig settings = HdfsConfig.from(config);
    if (!settings.schemes().contains(root.scheme())) {
      throw new IllegalArgumentException(
          "scheme '"
              + root.scheme()
              + "' of "
              + root
              + " is not served by storage-hdfs; list it in "
              + HdfsConfig.SCHEMES.key()
              + " to route it through Hadoop");
    }
    return HdfsMetaStorage.open(root, settings);
  }
}
