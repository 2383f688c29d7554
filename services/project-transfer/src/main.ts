import { runMain } from '@anvil/runtime';
import { projectTransferService } from './index';

runMain(projectTransferService);
