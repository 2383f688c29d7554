import { runMain } from '@anvil/runtime';
import { alertingService } from './index';

runMain(alertingService);
