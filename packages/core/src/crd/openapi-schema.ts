/** A node of an OpenAPI v3 schema, as plain data (the CRD generator builds and checks these). */
export type OpenApiSchema = { [key: string]: unknown };
