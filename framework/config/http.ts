/** The health server's default port (custom.sluice.http.port and SLUICE_HTTP_PORT change it). */
export const DEFAULT_HTTP_PORT = 9464;

/** The variable that sets it for one process (the container's task definition sets it). */
export const HTTP_PORT_ENV = 'SLUICE_HTTP_PORT';

/** Where it listens unless SLUICE_HTTP_HOST says otherwise: loopback, locally and in the container. */
export const DEFAULT_HTTP_HOST = '127.0.0.1';
export const HTTP_HOST_ENV = 'SLUICE_HTTP_HOST';
