import { Obj } from "./store";

/**
 * The §2.4 access-control objects of a zone or stream, each off and active: the fixture's, and
 * what timeshift create (§4.19) stores for the settings a request leaves out.
 */
export function accessDefaults(): Obj {
  return {
    domainlock: { enabled: "N", policy: "N", noreferer: "N", active: "Y", list: "", ips: "" },
    geoblock: { enabled: "N", policy: "N", active: "Y", list: [], ips: "" },
    ipaccess: { enabled: "N", policy: "N", active: "Y", list: "", ips: "" },
    useragent: { enabled: "N", policy: "N", casesensitive: "N", active: "Y", list: "", listArr: [], ips: "" },
    securetoken: {
      enabled: "N",
      active: "Y",
      policy: "F",
      keyip: "N",
      list: "",
      timeout: 3600,
      session: "0",
      ips: "",
      dirs: null,
    },
    eac: { enabled: "N", policy: "N", active: "Y", list: "", ips: "" },
    bwlimit: { enabled: "N", policy: "0", rate: 0, rateafter: 0, payg: "N", active: "Y" },
  };
}
