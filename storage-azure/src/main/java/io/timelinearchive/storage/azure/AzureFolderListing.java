package io.timelinearchive.storage.azure;

import com.azure.core.http.rest.PagedResponse;
import com.azure.storage.blob.models.BlobItem;
import io.timelinearchive.storage.StorageLocation;
import io.timelinearchive.storage.SubFolders;
import java.io.IOException;
import java.util.Iterator;
import java.util.List;

/**
 * The sub-folders of one folder from a listing by hierarchy, page by page: its prefix items, which
 * stand for every blob below a sub-folder, and the directory marker blobs of accounts with a
 * hierarchical namespace, which are a folder's only trace while it is empty.
 */
final class AzureFolderListing {
  private AzureFolderListing() {}

  static List<StorageLocation> list(StorageLocation folder, Iterator<PagedResponse<BlobItem>> pages)
      throws IOException {
    SubFolders folders = new SubFolders(folder);
    try {
      while (pages.hasNext()) {
        for (BlobItem item : pages.next().getValue()) {
          if (Boolean.TRUE.equals(item.isPrefix())) {
            folders.addPrefix(item.getName());
          } else if (AzureListing.isFolderMarker(item)) {
            folders.addKey(item.getName());
          }
        }
      }
    } catch (RuntimeException e) {
      if (AzureErrors.isNotFound(e)) {
        return List.of(); // no container, no folders
      }
      throw AzureErrors.toIoException("list the folders of", folder, e);
    }
    // The service lists in UTF-16 order (see AzureListing); sorted() gives UTF-8 order.
    return folders.sorted();
  }
}
