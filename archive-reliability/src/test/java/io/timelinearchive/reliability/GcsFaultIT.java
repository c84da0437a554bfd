package io.timelinearchive.reliability;

import io.timelinearchive.testing.FaultProxy.Fault;
import io.timelinearchive.testing.FaultProxy.Request;

/** Store faults on fake-gcs-server, through the JSON API the GCS backend speaks. */
class GcsFaultIT extends AbstractFaultIT {
  @Override
  Store store() {
    return Store.gcs();
  }

  @Override
  String endpointKey() {
    return "gcs.endpoint";
  }

  @Override
  Fault error(int status) {
    return Fault.respond(status, status == 429 ? "rateLimitExceeded" : "backendError");
  }

  // a one-request upload names the object in its JSON part; a resumable one in its first request
  @Override
  boolean write(Request r) {
    return r.path().startsWith("/upload/");
  }

  @Override
  boolean list(Request r) {
    return r.method().equals("GET") && r.path().matches("/storage/v1/b/[^/]+/o/?");
  }

  // the GCS backend deletes in JSON API batches, one file or many
  @Override
  boolean delete(Request r) {
    return r.method().equals("DELETE")
        || (r.method().equals("POST") && r.path().startsWith("/batch/"));
  }
}
