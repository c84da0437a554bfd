package io.timelinearchive.storage.s3;

import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.StorageLocation;
import java.io.IOException;
import java.net.URI;
import java.util.HashMap;
import java.util.Map;
import software.amazon.awssdk.services.s3.S3Client;

/** An S3 API server the tests run against. */
public interface S3Server {
  URI endpoint();

  /** The {@code s3.*} settings that reach this server. */
  Map<String, String> config();

  /** A plain SDK client for test setup and checks, outside the storage under test. */
  S3Client admin();

  /** Creates an empty bucket with a name no other test uses. */
  String newBucket();

  /** Opens {@code s3://bucket} with this server's settings plus {@code extra}. */
  default MetaStorage open(String bucket, Map<String, String> extra) throws IOException {
    Map<String, String> config = new HashMap<>(config());
    config.putAll(extra);
    return new S3MetaStorageFactory().open(StorageLocation.of("s3://" + bucket), config);
  }
}
