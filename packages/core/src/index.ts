export * from './contracts/submitter-exit-codes.ts';
export * from './contracts/termination-message.ts';
