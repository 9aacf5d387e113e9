// One definition of free ports and TCP reachability, in the dev package of test helpers.
export { freePort, tcpOpen } from '@rayjob/test-support';
