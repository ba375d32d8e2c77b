import type { ModuleRoutes } from '../../platform/http/types.js';

// Not built yet: registered by app.ts so that the module can be filled in without touching it.
export const importRoutes: ModuleRoutes = async () => {};
