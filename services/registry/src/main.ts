import { runMain } from '@anvil/runtime';
import { registryService } from './index';

runMain(registryService);
