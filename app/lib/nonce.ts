import { createContext, useContext } from 'react';

/**
 * The request's Content-Security-Policy nonce (app/entry.server.tsx), for React Router's inline
 * scripts. Undefined in the browser: scripts added after hydration are modules from 'self'.
 */
export const NonceContext = createContext<string | undefined>(undefined);
export const useNonce = () => useContext(NonceContext);
