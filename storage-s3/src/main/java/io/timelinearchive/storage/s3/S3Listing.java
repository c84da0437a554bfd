package io.timelinearchive.storage.s3;

import static java.util.Objects.requireNonNull;
import static java.util.Objects.requireNonNullElse;

import io.timelinearchive.storage.FileEntry;
import io.timelinearchive.storage.PagedFileIterator;
import io.timelinearchive.storage.StorageLocation;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.EncodingType;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * The files directly in one folder: a {@code ListObjectsV2} delimiter listing, one page at a time,
 * in S3's own order (UTF-8 bytes).
 */
final class S3Listing extends PagedFileIterator {
  private final S3Client client;
  private final String bucket;
  private final int pageSize;
  private final StorageLocation folder;
  private final String prefix;
  private String continuation;
  private boolean lastPage;

  S3Listing(S3Client client, String bucket, int pageSize, StorageLocation folder) {
    this.client = requireNonNull(client, "client is null");
    this.bucket = requireNonNull(bucket, "bucket is null");
    this.pageSize = pageSize;
    this.folder = requireNonNull(folder, "folder is null");
    this.prefix = folder.path().isEmpty() ? "" : folder.path() + "/";
  }

  @Override
  protected List<FileEntry> nextPage() throws IOException {
    if (lastPage) {
      return null;
    }
    ListObjectsV2Response response;
    try {
      // encoding-type=url lets keys with characters XML 1.0 cannot carry come through; the
      // SDK decodes them again.
      response =
          client.listObjectsV2(
              b ->
                  b.bucket(bucket)
                      .prefix(prefix)
                      .delimiter("/")
                      .encodingType(EncodingType.URL)
                      .maxKeys(pageSize)
                      .continuationToken(continuation));
    } catch (SdkException e) {
      throw S3Errors.failure("list", folder, e);
    }
    continuation = response.nextContinuationToken();
    lastPage = !Boolean.TRUE.equals(response.isTruncated()) || continuation == null;
    List<FileEntry> entries = new ArrayList<>(response.contents().size());
    for (S3Object object : response.contents()) {
      FileEntry entry = entry(object);
      if (entry != null) {
        entries.add(entry);
      }
    }
    return entries;
  }

  private FileEntry entry(S3Object object) {
    String key = object.key();
    if (key == null || !key.startsWith(prefix)) {
      return null;
    }
    String name = key.substring(prefix.length());
    // The folder's own marker object ("folder/") and names no location can hold are skipped.
    if (name.isEmpty() || name.equals(".") || name.equals("..") || name.contains("/")) {
      return null;
    }
    Instant modified = requireNonNullElse(object.lastModified(), Instant.EPOCH);
    return new FileEntry(
        folder.resolve(name), Math.max(0, requireNonNullElse(object.size(), 0L)), modified);
  }
}
