// Public API of @rayjob/sandbox. Filled in as the API server lands.
export {};
