import { runMain } from '@anvil/runtime';
import { pipelinesService } from './index';

runMain(pipelinesService);
