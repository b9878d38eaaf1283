/** DNS zones (§4.14). */
import { Route } from "../route";

export const routes: Route[] = [
  {
    method: "GET",
    path: "/v2/dns",
    handler: (ctx) => ({
      result: "success",
      domains: ctx.store.list("dnsZones"),
      nameservers: ctx.store.state.account.nameservers,
    }),
  },
];
