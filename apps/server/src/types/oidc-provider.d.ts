/**
 * The part of oidc-provider 8 that Assay uses. The package ships no types and @types/oidc-provider
 * is not installed; these follow the library's docs/README.md and lib/ for v8.8.
 */
declare module "oidc-provider" {
  import type { IncomingMessage, ServerResponse } from "node:http";

  export type UnknownObject = Record<string, unknown>;

  /** What an adapter stores for one model instance. */
  export interface AdapterPayload extends UnknownObject {
    uid?: string;
    grantId?: string;
    userCode?: string;
    accountId?: string;
    consumed?: number;
  }

  export interface Adapter {
    upsert(id: string, payload: AdapterPayload, expiresIn: number | undefined): Promise<void>;
    find(id: string): Promise<AdapterPayload | undefined>;
    findByUserCode(userCode: string): Promise<AdapterPayload | undefined>;
    findByUid(uid: string): Promise<AdapterPayload | undefined>;
    consume(id: string): Promise<void>;
    destroy(id: string): Promise<void>;
    revokeByGrantId(grantId: string): Promise<void>;
  }

  export type AdapterConstructor = new (model: string) => Adapter;

  export interface Account {
    accountId: string;
    claims(
      use: string,
      scope: string,
      claims: UnknownObject,
      rejected: string[],
    ): Promise<UnknownObject> | UnknownObject;
  }

  export interface Grant {
    jti?: string;
    accountId?: string;
    clientId?: string;
    addOIDCScope(scope: string): void;
    rejectOIDCScope(scope: string): void;
    addOIDCClaims(claims: string[]): void;
    addResourceScope(resource: string, scope: string): void;
    rejectResourceScope(resource: string, scope: string): void;
    save(ttl?: number): Promise<string>;
  }

  export interface GrantConstructor {
    new (init: { accountId: string; clientId: string }): Grant;
    find(id: string): Promise<Grant | undefined>;
  }

  export interface Interaction {
    uid: string;
    prompt: { name: string; reasons: string[]; details: UnknownObject };
    params: UnknownObject;
    session?: { accountId?: string; uid?: string };
    grantId?: string;
    result?: UnknownObject;
  }

  export interface Client {
    clientId: string;
    grantTypeAllowed(type: string): boolean;
  }

  export interface OIDCContext {
    provider: Provider;
    client?: Client;
    session?: { accountId?: string };
    params: UnknownObject;
    result?: { consent?: { grantId?: string } } & UnknownObject;
    requestParamScopes: Set<string>;
    requestParamOIDCScopes: Set<string>;
    entities: UnknownObject;
  }

  /** The koa context oidc-provider hands to configuration helpers. */
  export interface KoaContextWithOIDC {
    oidc: OIDCContext;
    body: unknown;
    type: string;
    status: number;
    host: string;
    set(field: string, value: string): void;
  }

  export interface ErrorOut {
    error: string;
    error_description?: string;
    state?: string;
  }

  export type Configuration = UnknownObject;

  export class Provider {
    constructor(issuer: string, configuration?: Configuration);
    readonly issuer: string;
    proxy: boolean;
    readonly Grant: GrantConstructor;
    callback(): (req: IncomingMessage, res: ServerResponse) => Promise<void>;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<Interaction>;
    interactionResult(
      req: IncomingMessage,
      res: ServerResponse,
      result: UnknownObject,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<string>;
    interactionFinished(
      req: IncomingMessage,
      res: ServerResponse,
      result: UnknownObject,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<void>;
    on(event: string, listener: (...args: unknown[]) => void): this;
  }

  type ErrorClass = new (description?: string) => Error & {
    error: string;
    error_description?: string;
    status: number;
  };

  export const errors: {
    OIDCProviderError: ErrorClass;
    InvalidTarget: ErrorClass;
    SessionNotFound: ErrorClass;
    AccessDenied: ErrorClass;
  };

  export default Provider;
}
