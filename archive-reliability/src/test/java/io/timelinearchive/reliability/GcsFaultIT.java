package io.timelinearchive.reliability;

import io.timelinearchive.storage.s3.FaultProxy.Fault;
import io.timelinearchive.storage.s3.FaultProxy.Request;
import java.net.URI;
import java.util.HashMap;
import java.util.Map;

/** Store faults on fake-gcs-server, through the JSON API the GCS backend speaks. */
class GcsFaultIT extends AbstractFaultIT {
  private static final String ENDPOINT = "gcs.endpoint";

  @Override
  Store store() {
    return Store.gcs();
  }

  @Override
  URI upstream(Map<String, String> config) {
    return URI.create(config.get(ENDPOINT));
  }

  @Override
  Map<String, String> viaProxy(Map<String, String> config, URI proxy) {
    Map<String, String> via = new HashMap<>(config);
    via.put(ENDPOINT, proxy.toString());
    return via;
  }

  @Override
  Fault error(int status) {
    return Fault.respond(status, status == 429 ? "rateLimitExceeded" : "backendError");
  }

  // a download (alt=media) or the object's metadata
  @Override
  boolean instantRead(Request r) {
    return r.method().equals("GET") && namesAnInstantFile(r);
  }

  @Override
  boolean list(Request r) {
    return r.method().equals("GET") && r.path().matches("/storage/v1/b/[^/]+/o/?");
  }

  // a one-request upload names the object in its JSON part; a resumable one in its first request
  @Override
  boolean archiveWrite(Request r) {
    return r.path().startsWith("/upload/") && names(r).contains("/.commits_.archive.");
  }

  @Override
  boolean lockWrite(Request r) {
    return r.path().startsWith("/upload/") && names(r).contains("/.timeline_archive.lock.");
  }

  // the GCS backend deletes in JSON API batches, one file or many
  @Override
  boolean delete(Request r) {
    return r.method().equals("DELETE")
        || (r.method().equals("POST") && r.path().startsWith("/batch/"));
  }
}
