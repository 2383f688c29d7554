import { runMain } from '@anvil/runtime';
import { workItemsService } from './index';

runMain(workItemsService);
