import { runMain } from '@anvil/runtime';
import { identityService } from './index';

runMain(identityService);
